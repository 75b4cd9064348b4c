import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
// Inter, self-hosted: the font files are bundled from node_modules and served by Hintline itself.
import "@fontsource-variable/inter";
// KaTeX's stylesheet and fonts for math in replies, bundled the same way (no CDN).
import "katex/dist/katex.min.css";
import "./globals.css";
import { OperatorWordsProvider } from "@/components/operator-words";
import { authMode } from "@/lib/auth/mode";
import { pageReadsOperatorWords } from "@/lib/auth/page-viewer";

export const metadata: Metadata = {
  title: "Hintline",
  description: "A chat agent that always knows the time, its tasks and its context — and shows you every hint.",
  icons: { icon: "/icon.svg" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const theme = (await cookies()).get("hintline_theme")?.value;
  return (
    // data-auth-mode: the client's API wrapper sends a tab whose session ended to the sign-in page in accounts mode.
    <html lang="en" data-theme={theme === "dark" || theme === "light" ? theme : undefined} data-auth-mode={authMode()}>
      <body className="font-sans antialiased">
        <OperatorWordsProvider operator={await pageReadsOperatorWords()}>{children}</OperatorWordsProvider>
      </body>
    </html>
  );
}
