import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 px-6 text-center">
      <h1 className="text-lg font-semibold">Not found</h1>
      <Link href="/" className="text-accent underline">
        Start a new chat
      </Link>
    </main>
  );
}
