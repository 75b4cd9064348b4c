-- Full-text search of the messages' text (the sidebar's search): a GIN index on the text parts' words. Queries
-- use exactly this expression (lib/db/search.ts).
CREATE INDEX "Message_search_idx" ON "Message" USING GIN (to_tsvector('simple', jsonb_path_query_array("parts", '$[*] ? (@.type == "text").text')::text));
