/** The mark next to figures the offline model produced (SPEC §8, honest numbers): a lexical stand-in's, not a language model's. */
export function OfflineTag({ partly = false }: { partly?: boolean }) {
  return (
    <span
      className="eval-offline-tag"
      data-testid="offline-tag"
      title={`${partly ? 'partly ' : ''}the offline model’s figures: a deterministic lexical stand-in, not a language model`}
    >
      {partly ? 'partly offline model' : 'offline model'}
    </span>
  );
}
