/**
 * The first `n` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair (an
 * emoji): what a preview, a clipped line or a prompt's excerpt takes, so half a character never
 * reaches a terminal or a model.
 */
export function sliceWhole(text: string, n: number): string {
  const cut = text.slice(0, n);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
