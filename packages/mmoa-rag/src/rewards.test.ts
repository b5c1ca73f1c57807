import { selectorPrompt } from './prompts';
import { candidateQuota } from './agents/candidatePool';
import { agentReward, answerWords, readSelection, rewriterViolation, SELECTOR_REPLY_PATTERN, selectorGrammar, sharedF1 } from './rewards';
import { MMOA_RAG_DEFAULTS } from './settings';

describe('the Selector’s vocabulary (Document, digits, commas)', () => {
  it('accepts IDs of candidates joined by commas', () => {
    expect(readSelection('Document0,Document4,Document6', 10)).toEqual({ selected: [0, 4, 6], malformed: false, repeated: false });
  });

  it('flags a repeated ID and passes the document on once', () => {
    expect(readSelection('Document3,Document1,Document3', 10)).toEqual({ selected: [3, 1], malformed: false, repeated: true });
  });

  it('flags text outside the vocabulary, spaces, and IDs past K−1', () => {
    expect(readSelection('Document 2, Document3', 10).malformed).toBe(true);
    expect(readSelection('Documents 1 and 2 help', 10)).toMatchObject({ selected: [], malformed: true });
    expect(readSelection('Document0,Document10', 10)).toEqual({ selected: [0], malformed: true, repeated: false });
    // A zero-padded ID is not the prompt's vocabulary: penalised, and no way around the repeat check.
    expect(readSelection('Document03,Document3', 10)).toEqual({ selected: [3], malformed: true, repeated: false });
  });

  it('selects nothing and is not penalised for an empty reply, as the authors’ reward does', () => {
    expect(readSelection('', 10)).toEqual({ selected: [], malformed: false, repeated: false });
  });

  it('has a grammar a constrained decoder could use instead', () => {
    expect(selectorGrammar(3)).toBe('root ::= item ("," item)*\nitem ::= "Document" id\nid ::= "0" | "1" | "2"');
  });
});

describe('penalty checks and rewards', () => {
  it('penalises the rewriter past four sub-questions or 300 characters', () => {
    expect(rewriterViolation(['a?', 'b?', 'c?', 'd?'], MMOA_RAG_DEFAULTS)).toBeUndefined();
    expect(rewriterViolation(['a?', 'b?', 'c?', 'd?', 'e?'], MMOA_RAG_DEFAULTS)).toBe('too-many-sub-questions');
    expect(rewriterViolation(['x'.repeat(301)], MMOA_RAG_DEFAULTS)).toBe('sub-questions-too-long');
  });

  it('counts answer words on whitespace', () => {
    expect(answerWords('  Chief of\nProtocol ')).toBe(3);
  });

  it('shares the authors’ split of K = 10 candidates among the sub-questions', () => {
    expect([1, 2, 3, 4].map((n) => candidateQuota(10, n))).toEqual([[10], [5, 5], [4, 3, 3], [3, 3, 2, 2]]);
  });

  it('scores the shared return on the text after "Answer: " and adds each agent’s penalty', () => {
    expect(sharedF1('Shirley Temple served there.\n\nAnswer: Chief of Protocol', ['Chief of Protocol'])).toBe(1);
    expect(agentReward(0.5, -1)).toEqual({ total: -0.5, components: { shared_f1: 0.5, penalty: -1 }, weights: { shared_f1: 1, penalty: 1 } });
  });
});

describe('the Selector reply pattern handed to constrained decoding', () => {
  it('admits exactly what the penalty check admits', () => {
    const constrained = new RegExp(`^(?:${selectorPrompt.reply!.pattern})$`);
    for (const reply of ['Document0', 'Document2,Document0', 'Document10,Document3', 'Document0, Document1', 'document0', 'Doc0', '0,1', 'Document0,', '', 'Document0 and Document1']) {
      expect([reply, constrained.test(reply)]).toEqual([reply, SELECTOR_REPLY_PATTERN.test(reply)]);
    }
  });
});
