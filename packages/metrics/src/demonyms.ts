/**
 * Country ↔ demonym pairs for the `opera-lenient` comparison, in normalised (lower-case,
 * article-free) form. Questions such as "What nationality was X?" are answered "French" as
 * often as "France"; OPERA's lenient scoring counts both. The list is deliberately short and
 * general: common countries only, demonyms that are the usual adjective, nothing tied to a
 * particular dataset question. Languages share some of these words ("French", "German"); the
 * lenient scheme accepts that ambiguity by design, and the strict schemes do not use the table.
 */
export const COUNTRY_DEMONYMS: ReadonlyArray<{ country: string; demonyms: readonly string[] }> = [
  { country: 'united states', demonyms: ['american'] },
  { country: 'united kingdom', demonyms: ['british'] },
  { country: 'england', demonyms: ['english'] },
  { country: 'scotland', demonyms: ['scottish'] },
  { country: 'wales', demonyms: ['welsh'] },
  { country: 'ireland', demonyms: ['irish'] },
  { country: 'france', demonyms: ['french'] },
  { country: 'germany', demonyms: ['german'] },
  { country: 'italy', demonyms: ['italian'] },
  { country: 'spain', demonyms: ['spanish'] },
  { country: 'portugal', demonyms: ['portuguese'] },
  { country: 'netherlands', demonyms: ['dutch'] },
  { country: 'belgium', demonyms: ['belgian'] },
  { country: 'switzerland', demonyms: ['swiss'] },
  { country: 'austria', demonyms: ['austrian'] },
  { country: 'sweden', demonyms: ['swedish'] },
  { country: 'norway', demonyms: ['norwegian'] },
  { country: 'denmark', demonyms: ['danish'] },
  { country: 'finland', demonyms: ['finnish'] },
  { country: 'poland', demonyms: ['polish'] },
  { country: 'russia', demonyms: ['russian'] },
  { country: 'greece', demonyms: ['greek'] },
  { country: 'china', demonyms: ['chinese'] },
  { country: 'japan', demonyms: ['japanese'] },
  { country: 'south korea', demonyms: ['south korean'] },
  { country: 'india', demonyms: ['indian'] },
  { country: 'canada', demonyms: ['canadian'] },
  { country: 'mexico', demonyms: ['mexican'] },
  { country: 'brazil', demonyms: ['brazilian'] },
  { country: 'argentina', demonyms: ['argentine', 'argentinian'] },
  { country: 'australia', demonyms: ['australian'] },
  { country: 'new zealand', demonyms: ['new zealander'] },
  { country: 'south africa', demonyms: ['south african'] },
  { country: 'egypt', demonyms: ['egyptian'] },
  { country: 'israel', demonyms: ['israeli'] },
];

const DEMONYM_TO_COUNTRY: ReadonlyArray<{ demonym: readonly string[]; country: readonly string[] }> = COUNTRY_DEMONYMS.flatMap(
  ({ country, demonyms }) => demonyms.map((d) => ({ demonym: d.split(' '), country: country.split(' ') })),
)
  // Longest first, so "south african" becomes "south africa" before "african" could match alone.
  .sort((a, b) => b.demonym.length - a.demonym.length);

/** Replaces every demonym in a normalised token list by its country's tokens. */
export function demonymsToCountries(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const hit = DEMONYM_TO_COUNTRY.find(({ demonym }) => demonym.every((t, j) => tokens[i + j] === t));
    if (hit) {
      out.push(...hit.country);
      i += hit.demonym.length;
    } else {
      out.push(tokens[i] as string);
      i += 1;
    }
  }
  return out;
}
