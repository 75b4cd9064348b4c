-- Full-text search of the messages' text (the sidebar's search): an FTS5 index without its own copy of the text
-- (contentless, deletable by rowid), kept by triggers from each settled message's text parts. A reply is indexed when
-- it settles, not on every checkpoint while it streams.
CREATE VIRTUAL TABLE "MessageFts" USING fts5("text", content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "Message_fts_insert" AFTER INSERT ON "Message" WHEN new."status" <> 'streaming' BEGIN
    INSERT INTO "MessageFts"("rowid", "text") VALUES (new."rowid", (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(new."parts") WHERE json_extract(value, '$.type') = 'text'));
END;

CREATE TRIGGER "Message_fts_delete" AFTER DELETE ON "Message" BEGIN
    DELETE FROM "MessageFts" WHERE "rowid" = old."rowid";
END;

CREATE TRIGGER "Message_fts_update" AFTER UPDATE OF "parts", "status" ON "Message" WHEN new."status" <> 'streaming' BEGIN
    DELETE FROM "MessageFts" WHERE "rowid" = old."rowid";
    INSERT INTO "MessageFts"("rowid", "text") VALUES (new."rowid", (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each(new."parts") WHERE json_extract(value, '$.type') = 'text'));
END;

INSERT INTO "MessageFts"("rowid", "text")
    SELECT "rowid", (SELECT group_concat(json_extract(value, '$.text'), ' ') FROM json_each("Message"."parts") WHERE json_extract(value, '$.type') = 'text')
    FROM "Message" WHERE "status" <> 'streaming';
