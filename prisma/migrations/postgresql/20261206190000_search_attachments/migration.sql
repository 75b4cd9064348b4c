-- Search reads attachments too: this index covers a message's text parts and the text its file parts keep (a text
-- file's as providerMetadata.hintline.text, a PDF's pages as providerMetadata.hintline.pages), each string's words
-- read as text: Message_search_idx read the JSON text, where a line break is "\n", so the word after one was indexed
-- as "n<word>". Queries use exactly this expression (lib/db/search.ts). Message_search_idx stays for instances of the
-- previous version during a rolling upgrade (a migration only adds), and a later release drops it.
CREATE INDEX "Message_search_text_idx" ON "Message" USING GIN (jsonb_to_tsvector('simple', jsonb_path_query_array("parts", '$[*] ? (@.type == "text").text') || jsonb_path_query_array("parts", '$[*] ? (@.type == "file").providerMetadata.hintline'), '["string"]'));
