-- Search reads attachments too: the index holds a message's text parts and the text its file parts keep (a text
-- file's as providerMetadata.hintline.text, a PDF's pages as providerMetadata.hintline.pages). Messages with a file
-- part are indexed again, so the PDFs attached before are found as well.
DROP TRIGGER "Message_fts_insert";
DROP TRIGGER "Message_fts_update";

CREATE TRIGGER "Message_fts_insert" AFTER INSERT ON "Message" WHEN new."status" <> 'streaming' BEGIN
    INSERT INTO "MessageFts"("rowid", "text") VALUES (new."rowid", (SELECT group_concat("t", ' ') FROM (
        SELECT json_extract(p.value, '$.text') AS "t" FROM json_each(new."parts") p WHERE json_extract(p.value, '$.type') = 'text'
        UNION ALL SELECT json_extract(p.value, '$.providerMetadata.hintline.text') FROM json_each(new."parts") p WHERE json_extract(p.value, '$.type') = 'file'
        UNION ALL SELECT g.value FROM json_each(new."parts") p, json_each(p.value, '$.providerMetadata.hintline.pages') g WHERE json_extract(p.value, '$.type') = 'file')));
END;

CREATE TRIGGER "Message_fts_update" AFTER UPDATE OF "parts", "status" ON "Message" WHEN new."status" <> 'streaming' BEGIN
    DELETE FROM "MessageFts" WHERE "rowid" = old."rowid";
    INSERT INTO "MessageFts"("rowid", "text") VALUES (new."rowid", (SELECT group_concat("t", ' ') FROM (
        SELECT json_extract(p.value, '$.text') AS "t" FROM json_each(new."parts") p WHERE json_extract(p.value, '$.type') = 'text'
        UNION ALL SELECT json_extract(p.value, '$.providerMetadata.hintline.text') FROM json_each(new."parts") p WHERE json_extract(p.value, '$.type') = 'file'
        UNION ALL SELECT g.value FROM json_each(new."parts") p, json_each(p.value, '$.providerMetadata.hintline.pages') g WHERE json_extract(p.value, '$.type') = 'file')));
END;

CREATE TEMP TABLE "MessageWithFiles" AS SELECT m."rowid" AS "id", m."parts" AS "parts" FROM "Message" m
    WHERE m."status" <> 'streaming' AND EXISTS (SELECT 1 FROM json_each(m."parts") p WHERE json_extract(p.value, '$.type') = 'file');
DELETE FROM "MessageFts" WHERE "rowid" IN (SELECT "id" FROM "MessageWithFiles");
INSERT INTO "MessageFts"("rowid", "text") SELECT w."id", (SELECT group_concat("t", ' ') FROM (
        SELECT json_extract(p.value, '$.text') AS "t" FROM json_each(w."parts") p WHERE json_extract(p.value, '$.type') = 'text'
        UNION ALL SELECT json_extract(p.value, '$.providerMetadata.hintline.text') FROM json_each(w."parts") p WHERE json_extract(p.value, '$.type') = 'file'
        UNION ALL SELECT g.value FROM json_each(w."parts") p, json_each(p.value, '$.providerMetadata.hintline.pages') g WHERE json_extract(p.value, '$.type') = 'file'))
    FROM "MessageWithFiles" w;
DROP TABLE "MessageWithFiles";
