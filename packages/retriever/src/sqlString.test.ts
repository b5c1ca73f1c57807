import { sqlString } from './sqlString';

it('quotes a value for a LanceDB filter, doubling apostrophes', () => {
  expect(sqlString("Ender's Game")).toBe("'Ender''s Game'");
  expect(sqlString('plain')).toBe("'plain'");
});
