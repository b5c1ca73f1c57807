import { findPlaceholders } from './findPlaceholders';

describe('findPlaceholders', () => {
  it("finds OPERA's bracket placeholder with its position", () => {
    const text = 'What was the occupation of [director from step 1]?';
    const [placeholder, ...rest] = findPlaceholders(text);
    expect(rest).toEqual([]);
    expect(placeholder).toEqual({ raw: '[director from step 1]', stepRef: '1', start: 27, end: 49, form: 'bracket' });
    expect(text.slice(placeholder!.start, placeholder!.end)).toBe(placeholder!.raw);
  });

  it('accepts any wording in the bracket as long as it names a step', () => {
    const refs = (text: string) => findPlaceholders(text).map((p) => p.stepRef);
    expect(refs('[entity from step 1]')).toEqual(['1']);
    expect(refs('[ANSWER FROM STEP 2]')).toEqual(['2']);
    expect(refs('[the year found in Step 3]')).toEqual(['3']);
    expect(refs('[result of step #4]')).toEqual(['4']);
    expect(refs('[answer to step12]')).toEqual(['12']);
    expect(refs('[person from step 02]')).toEqual(['2']);
  });

  it('reads step numbers written as words or ordinals, as small planners write them', () => {
    const refs = (text: string) => findPlaceholders(text).map((p) => p.stepRef);
    expect(refs('Where was [the director from step one] born?')).toEqual(['1']);
    expect(refs('Where was [the director from the second step] born?')).toEqual(['2']);
  });

  it('finds the #N references of HotpotQA / MuSiQue decompositions', () => {
    const found = findPlaceholders("Who is the spouse of #1? When was #12's album released?");
    expect(found.map((p) => [p.raw, p.stepRef, p.form])).toEqual([
      ['#1', '1', 'hash'],
      ['#12', '12', 'hash'],
    ]);
  });

  it('leaves brackets and hashes that do not name a step alone', () => {
    expect(findPlaceholders('As shown in [1] and [a link](http://x.y), see [the previous answer].')).toEqual([]);
    expect(findPlaceholders('Written in C#1? Heading ##2, entity &#39;quoted&#39;, issue#3, #4th')).toEqual([]);
  });

  it('reports a # inside a bracket once, as the whole bracket', () => {
    const found = findPlaceholders('Who married [#1] and [spouse of #2 from step 3]?');
    expect(found.map((p) => [p.raw, p.stepRef, p.form])).toEqual([
      ['[#1]', '1', 'bracket'],
      ['[spouse of #2 from step 3]', '2', 'bracket'],
    ]);
  });

  it('refers to the first step a bracket names, since one answer fills one placeholder', () => {
    expect(findPlaceholders('[the years from steps 1 and 2]').map((p) => p.stepRef)).toEqual(['1']);
  });

  it('returns mixed forms in order of appearance', () => {
    const found = findPlaceholders('Is #2 older than [person from step 1]?');
    expect(found.map((p) => p.raw)).toEqual(['#2', '[person from step 1]']);
  });

  it('does not let a bracket span lines', () => {
    expect(findPlaceholders('Who wrote [the book\nfrom step 1]?')).toEqual([]);
  });
});
