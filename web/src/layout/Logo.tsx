export function Logo({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="#5865F2" />
      <path d="M16 46V26l16-10 16 10v20H38V34H26v12z" fill="#fff" />
    </svg>
  );
}
