import { useEffect, useState } from 'react';
import type { StudioClient, StudioQuestion } from '../api/client';
import { errorText } from '../data';

/** Search a dataset's questions and pick one. */
export function QuestionPicker({
  client,
  dataset,
  selected,
  onSelect,
}: {
  client: StudioClient;
  dataset: string;
  selected: StudioQuestion | undefined;
  onSelect: (question: StudioQuestion | undefined) => void;
}) {
  const [query, setQuery] = useState('');
  const [questions, setQuestions] = useState<StudioQuestion[]>([]);
  const [total, setTotal] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    let current = true;
    const timer = window.setTimeout(
      () => {
        client.questions(dataset, { q: query.trim(), limit: 25 }).then(
          (page) => {
            if (!current) return;
            setQuestions(page.questions);
            setTotal(page.total);
            setError(undefined);
            if (!query.trim() && page.questions[0] && !selected) onSelect(page.questions[0]);
          },
          (reason: unknown) => current && setError(errorText(reason)),
        );
      },
      query ? 250 : 0,
    );
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
    // Selection is the page's; a new search must not re-run on it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, dataset, query]);

  return (
    <div className="question-picker">
      <input type="search" placeholder="Search questions…" value={query} onChange={(event) => setQuery(event.target.value)} data-testid="run-question-search" />
      {error ? <p className="error small">{error}</p> : null}
      <ul className="question-options" data-testid="question-options">
        {questions.map((question) => (
          <li key={question.id}>
            <button
              type="button"
              className={selected?.id === question.id ? 'question-option is-current' : 'question-option'}
              data-testid="question-option"
              data-question-id={question.id}
              onClick={() => onSelect(question)}
              title={`${question.id}${question.type ? ` · ${question.type}` : ''}${question.hops ? ` · ${question.hops} hops` : ''}`}
            >
              {question.text}
            </button>
          </li>
        ))}
      </ul>
      {total !== undefined ? (
        <p className="muted small">
          {questions.length} of {total} shown
        </p>
      ) : null}
    </div>
  );
}
