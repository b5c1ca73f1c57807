import { sliceWhole } from './text';

it('cuts text at n units, one fewer rather than split a surrogate pair', () => {
  expect(sliceWhole('abcdef', 3)).toBe('abc');
  expect(sliceWhole('abcd😀efg', 5)).toBe('abcd');
  expect(sliceWhole('abcd😀efg', 6)).toBe('abcd😀');
  expect(sliceWhole('ab', 5)).toBe('ab');
});
