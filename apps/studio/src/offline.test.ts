import { offlineModel } from './offline';
import { parseRoute } from './route';

describe('offlineModel (which figures carry the offline mark)', () => {
  it('reads a run’s model id, as the Run page gets it (StudioRunStarted.model)', () => {
    expect(offlineModel('offline')).toBe('offline');
    expect(offlineModel('openai:gpt-4o-mini')).toBeUndefined();
    expect(offlineModel(undefined)).toBeUndefined();
  });

  it('reads a trace file’s model description, as eval and run --json write it', () => {
    expect(offlineModel({ default: 'offline', roles: {} })).toBe('offline');
    expect(offlineModel({ default: 'offline', roles: { planner: 'offline' } })).toBe('offline');
    expect(offlineModel({ default: 'openai:gpt-4o-mini', roles: { planner: 'offline' } })).toBe('partly');
    expect(offlineModel({ default: 'offline', roles: { generator: 'openai:gpt-4o-mini' } })).toBe('partly');
    expect(offlineModel({ default: 'openai:gpt-4o-mini', roles: {} })).toBeUndefined();
    expect(offlineModel(null)).toBeUndefined();
  });
});

describe('parseRoute', () => {
  it('keeps a page whose address has a broken %-sequence (a hand-edited link) instead of throwing', () => {
    expect(parseRoute('#/workflows/%E0%A4')).toMatchObject({ page: 'workflows', id: '%E0%A4' });
    expect(parseRoute('#/workflows/opera%20x')).toMatchObject({ page: 'workflows', id: 'opera x' });
  });
});
