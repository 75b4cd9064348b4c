import { generateId } from "ai";
import { AppShell } from "@/components/app-shell";
import { Chat } from "@/components/chat/chat";
import { currentModel } from "@/lib/ai/providers";

export const dynamic = "force-dynamic";

// A new conversation: its id is made now and the conversation is stored with the first message.
export default function NewChatPage() {
  const id = generateId();
  const model = currentModel().info;
  return (
    <AppShell activeId={id} title="New chat" model={model}>
      <Chat key={id} id={id} initialMessages={[]} model={model} />
    </AppShell>
  );
}
