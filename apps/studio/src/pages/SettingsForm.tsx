import { useState } from 'react';

/**
 * Inputs for a workflow's settings, built from their defaults; reports only the values that differ
 * from them, and the fields whose text is not a value (a blank number, broken JSON), so a run is not
 * started with the default in place of what the user typed.
 */
export function SettingsForm({ defaults, onChange }: { defaults: Record<string, unknown>; onChange: (overrides: Record<string, unknown>, invalid: string[]) => void }) {
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [invalid, setInvalid] = useState<Record<string, boolean>>({});
  const entries = Object.entries(defaults);
  if (!entries.length) return <p className="muted small">This workflow has no settings.</p>;

  const set = (key: string, value: unknown, ok = true): void => {
    const next = { ...values };
    if (ok && JSON.stringify(value) !== JSON.stringify(defaults[key])) next[key] = value;
    else delete next[key];
    const nextInvalid = { ...invalid, [key]: !ok };
    setValues(next);
    setInvalid(nextInvalid);
    onChange(
      next,
      Object.keys(nextInvalid).filter((k) => nextInvalid[k]),
    );
  };

  return (
    <div className="settings-form">
      {entries.map(([key, fallback]) => {
        const current = key in values ? values[key] : fallback;
        const changed = key in values;
        const id = `setting-${key}`;
        let input;
        if (typeof fallback === 'boolean') {
          input = <input id={id} data-testid={id} type="checkbox" checked={Boolean(current)} onChange={(event) => set(key, event.target.checked)} />;
        } else if (typeof fallback === 'number') {
          input = (
            <input
              id={id}
              data-testid={id}
              type="number"
              step="any"
              defaultValue={String(fallback)}
              onChange={(event) => {
                const text = event.target.value.trim();
                const value = Number(text);
                set(key, value, text !== '' && Number.isFinite(value));
              }}
            />
          );
        } else if (typeof fallback === 'string') {
          input = <input id={id} data-testid={id} type="text" defaultValue={fallback} onChange={(event) => set(key, event.target.value)} />;
        } else {
          input = (
            <input
              id={id}
              data-testid={id}
              type="text"
              defaultValue={JSON.stringify(fallback)}
              onChange={(event) => {
                try {
                  set(key, JSON.parse(event.target.value) as unknown);
                } catch {
                  set(key, undefined, false);
                }
              }}
            />
          );
        }
        return (
          <label key={key} htmlFor={id} className={`setting${changed ? ' is-changed' : ''}${invalid[key] ? ' is-invalid' : ''}`}>
            <span className="setting-name">{key}</span>
            {input}
          </label>
        );
      })}
    </div>
  );
}
