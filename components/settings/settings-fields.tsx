// The settings drawer's fields: a label (or a legend for several controls), the control, and its note — the
// validation error beside the field it names, else a hint.
import type { ReactNode } from "react";

type FieldProps = { label: string; path: string; errors: Record<string, string>; hint?: string; children: ReactNode };

/** The id of a field's control (its label points at it) and of its note (the control is described by it). */
const fieldId = (path: string) => `setting-${path.replace(/\./g, "-")}`;
const noteId = (path: string) => `${fieldId(path)}-note`;

export const inputClass =
  "w-full rounded-lg border border-border bg-bg px-2.5 py-1.5 text-sm outline-none focus:border-accent/60";

export function Field({ label, path, errors, hint, children, group = false }: FieldProps & { group?: boolean }) {
  const error = errors[path];
  const note = error ? (
    <span role="alert" id={noteId(path)} data-testid={`error-${path}`} className="text-xs text-danger">
      {error}
    </span>
  ) : hint ? (
    <span id={noteId(path)} className="text-xs text-muted">
      {hint}
    </span>
  ) : null;
  // A field of several controls is a fieldset named by its legend; one control is named by its label.
  if (group) {
    return (
      <fieldset className="flex flex-col gap-1" data-field={path}>
        <legend className="mb-1 text-xs font-medium text-fg/80">{label}</legend>
        {children}
        {note}
      </fieldset>
    );
  }
  return (
    <div className="flex flex-col gap-1" data-field={path}>
      <label htmlFor={fieldId(path)} className="text-xs font-medium text-fg/80">
        {label}
      </label>
      {children}
      {note}
    </div>
  );
}

/** What a control needs to be named and described by its Field. */
export const controlProps = (path: string, errors: Record<string, string>, hint?: string) => ({
  id: fieldId(path),
  "aria-describedby": errors[path] || hint ? noteId(path) : undefined,
  "aria-invalid": errors[path] ? true : undefined,
});

export type DraftProps<D> = {
  draft: D;
  set: <K extends keyof D>(key: K, value: D[K]) => void;
  errors: Record<string, string>;
};

/** One text setting (a line, or `area` for several), named by its label, described by its hint or its error. */
export function TextSetting<D>({
  draft,
  set,
  errors,
  field,
  path,
  label,
  hint,
  area = false,
  inputMode,
}: DraftProps<D> & {
  field: keyof D;
  path: string;
  label: string;
  hint?: string;
  area?: boolean;
  inputMode?: "decimal" | "numeric";
}) {
  const common = {
    ...controlProps(path, errors, hint),
    "data-testid": `setting-${path}`,
    value: draft[field] as string,
    onChange: (e: { target: { value: string } }) => set(field, e.target.value as D[keyof D]),
  };
  return (
    <Field label={label} path={path} errors={errors} hint={hint}>
      {area ? (
        <textarea {...common} rows={4} className={`${inputClass} font-mono text-xs`} />
      ) : (
        <input {...common} inputMode={inputMode} className={inputClass} />
      )}
    </Field>
  );
}
