import { generateId } from "ai";
import { redirect } from "next/navigation";

export const dynamic = "force-dynamic";

// A new conversation gets its id now; it is stored with its first message (until then /c/<id> shows an empty chat).
export default function NewChatPage() {
  redirect(`/c/${generateId()}`);
}
