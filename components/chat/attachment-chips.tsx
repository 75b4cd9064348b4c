"use client";
// Attachments as chips: the composer's pending ones (with Remove) and those of a sent message (images as thumbnails,
// other files as a named chip).
import { attachmentKind, formatBytes } from "@/lib/agent/attachments";
import { CloseIcon, FileIcon } from "../ui/icons";

type Shown = { key: string; mediaType: string; filename?: string; url: string; size?: number };

const kindLabel = (mediaType: string) => {
  const kind = attachmentKind(mediaType);
  return kind === "pdf" ? "PDF" : kind === "image" ? "Image" : "Text";
};

function Chip({ item, onRemove, testId }: { item: Shown; onRemove?: () => void; testId: string }) {
  const name = item.filename || (attachmentKind(item.mediaType) === "image" ? "image" : "file");
  const isImage = attachmentKind(item.mediaType) === "image" && item.url.startsWith("data:image/");
  return (
    <li
      data-testid={testId}
      data-kind={attachmentKind(item.mediaType) ?? "other"}
      className="flex max-w-[16rem] items-center gap-2 rounded-xl border border-border bg-bg px-2 py-1.5 text-xs"
    >
      {isImage ? (
        // biome-ignore lint/performance/noImgElement: a data URL thumbnail (next/image would not optimise it)
        <img src={item.url} alt={name} className="size-10 shrink-0 rounded-md object-cover" />
      ) : (
        <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-chip text-muted">
          <FileIcon width={18} height={18} />
        </span>
      )}
      <span className="min-w-0">
        <span className="block truncate font-medium text-fg" title={name}>
          {name}
        </span>
        <span className="block text-muted">
          {kindLabel(item.mediaType)}
          {item.size !== undefined ? ` · ${formatBytes(item.size)}` : ""}
        </span>
      </span>
      {onRemove && (
        <button
          type="button"
          data-testid="attachment-remove"
          onClick={onRemove}
          aria-label={`Remove ${name}`}
          title={`Remove ${name}`}
          className="ml-auto flex size-7 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-chip hover:text-fg"
        >
          <CloseIcon width={14} height={14} />
        </button>
      )}
    </li>
  );
}

/** The composer's pending attachments. */
export function PendingChips({ items, onRemove }: { items: readonly Shown[]; onRemove: (key: string) => void }) {
  if (!items.length) return null;
  return (
    <ul data-testid="attachment-chips" aria-label="Attachments" className="flex flex-wrap gap-2 px-1 pb-2">
      {items.map((item) => (
        <Chip key={item.key} item={item} testId="attachment-chip" onRemove={() => onRemove(item.key)} />
      ))}
    </ul>
  );
}

type FilePartLike = { type: string; mediaType?: unknown; filename?: unknown; url?: unknown };

/** A sent message's attachments: images as thumbnails, other files as named chips. */
export function MessageAttachments({ parts }: { parts: readonly FilePartLike[] }) {
  const files = parts.flatMap((p, i) =>
    p.type === "file" && typeof p.mediaType === "string" && typeof p.url === "string"
      ? [
          {
            key: String(i),
            mediaType: p.mediaType,
            url: p.url,
            filename: typeof p.filename === "string" ? p.filename : undefined,
          },
        ]
      : [],
  );
  if (!files.length) return null;
  return (
    <ul
      data-testid="message-attachments"
      aria-label="Attachments"
      className="flex max-w-[85%] flex-wrap justify-end gap-2"
    >
      {files.map((file) =>
        attachmentKind(file.mediaType) === "image" && file.url.startsWith("data:image/") ? (
          <li key={file.key} data-testid="message-attachment-image">
            {/* biome-ignore lint/performance/noImgElement: a data URL thumbnail */}
            <img
              src={file.url}
              alt={file.filename ?? "Attached image"}
              title={file.filename}
              className="max-h-40 max-w-[12rem] rounded-xl border border-border object-cover"
            />
          </li>
        ) : (
          <Chip key={file.key} item={file} testId="message-attachment-file" />
        ),
      )}
    </ul>
  );
}
