import type { ReactNode } from 'react';

/** One titled part of the eval page. */
export function Section({ id, title, note, children }: { id: string; title: string; note?: ReactNode; children: ReactNode }) {
  return (
    <section className="eval-section" id={`eval-${id}`} aria-labelledby={`eval-${id}-title`}>
      <h2 id={`eval-${id}-title`}>{title}</h2>
      {note && <p className="eval-note">{note}</p>}
      {children}
    </section>
  );
}
