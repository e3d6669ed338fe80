/** The sharer's note on a shared page (a file's or a folder's), kept as typed and wrapped at any width. */
export function SharedNote({ note }: { note: string }) {
  return (
    <p
      data-testid="shared-note"
      className="whitespace-pre-line rounded-xl border border-border bg-bg/40 px-3 py-2.5 text-sm [overflow-wrap:anywhere]"
    >
      {note}
    </p>
  );
}
