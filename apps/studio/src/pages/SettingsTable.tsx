/** A workflow's settings and their values (the paper's defaults unless overridden). */
export function SettingsTable({ settings, overrides }: { settings: Record<string, unknown>; overrides?: Record<string, unknown> }) {
  const entries = Object.entries(settings);
  if (!entries.length) return <p className="muted small">No settings.</p>;
  return (
    <table className="settings-table" data-testid="settings">
      <tbody>
        {entries.map(([key, value]) => {
          const overridden = overrides && key in overrides;
          return (
            <tr key={key} className={overridden ? 'is-overridden' : undefined}>
              <th>{key}</th>
              <td>
                <code>{display(overridden ? overrides[key] : value)}</code>
                {overridden ? <span className="muted small"> (default {display(value)})</span> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function display(value: unknown): string {
  if (value === '' || value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
