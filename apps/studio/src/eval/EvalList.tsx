import type { StudioEvalListing } from '../api/client';
import { created } from './format';

/** The eval directories the server may open. */
export function EvalList({ listing, current, onOpen }: { listing: StudioEvalListing; current?: string; onOpen: (dir: string) => void }) {
  return (
    <nav className="eval-list" data-testid="eval-list" aria-label="eval directories">
      <h2>Evals</h2>
      {listing.evals.length === 0 ? (
        <p className="eval-empty">
          No eval directories under {listing.roots.join(', ') || 'the server’s roots'}. Run <code>npx multihop eval …</code> first.
        </p>
      ) : (
        <ul>
          {listing.evals.map((e) => (
            <li key={e.dir}>
              <button
                type="button"
                data-testid="eval-item"
                data-dir={e.dir}
                className={e.dir === current ? 'eval-item eval-item-current' : 'eval-item'}
                aria-current={e.dir === current ? 'page' : undefined}
                onClick={() => onOpen(e.dir)}
                title={e.dir}
              >
                <span className="eval-item-title">
                  {e.dataset ?? 'eval'}
                  {e.n !== undefined ? ` · ${e.n} q` : ''}
                </span>
                <span className="eval-item-dir">{e.dir}</span>
                <span className="eval-item-meta">
                  {e.workflows.join(', ')}
                  {e.created ? ` · ${created(e.created)}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
