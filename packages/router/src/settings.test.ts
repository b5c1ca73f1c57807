import { manifest } from './manifest';
import { L2_GRID, ROUTER_DEFAULTS, routerTrainerSettingsSchema } from './settings';

describe('router settings', () => {
  it('default to the shipped router file, its own λ and all its candidates', () => {
    expect(manifest.workflows.find((w) => w.id === 'router')!.settings!.parse({})).toEqual(ROUTER_DEFAULTS);
  });

  it('refuse a value the router cannot use', () => {
    const settings = manifest.workflows.find((w) => w.id === 'router')!.settings!;
    expect(settings.safeParse({ lambda: -2 }).success).toBe(false);
    expect(settings.safeParse({ lambda: 'cheap' }).success).toBe(false);
  });

  it("describe the L2 grid cross-validation chooses from as it is", () => {
    expect(routerTrainerSettingsSchema.shape.l2.description).toContain(L2_GRID.join(', '));
  });
});
