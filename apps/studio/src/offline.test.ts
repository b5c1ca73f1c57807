import { modelText, offlineModel, summaryOffline } from './offline';
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

describe('the offline mark of a mixed set-up', () => {
  it('does not count the judge, which a run never calls, and marks an eval the offline model served in part', () => {
    expect(offlineModel({ default: 'openai:m', roles: { judge: 'offline' } })).toBeUndefined();
    expect(offlineModel({ default: 'openai:m', roles: { direct: 'offline', judge: 'offline' } })).toBe('partly');
    expect(summaryOffline({ offline: false, offline_partly: true })).toBe('partly');
    expect(summaryOffline({ offline: true })).toBe('offline');
    expect(summaryOffline({ offline: false })).toBeUndefined();
    expect(modelText({ default: 'openai:m', roles: { direct: 'offline', judge: 'offline' } })).toBe('openai:m; direct=offline');
  });
});
