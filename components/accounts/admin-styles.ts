// The admin page's shared class names.
export const section = "rounded-2xl border border-border bg-elevated p-5";
export const button = "rounded-lg border border-border px-2.5 py-1 text-sm hover:bg-chip disabled:opacity-50";
export const primary = "rounded-lg bg-accent px-3 py-1.5 text-sm font-medium text-accent-fg disabled:opacity-60";
