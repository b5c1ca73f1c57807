export { manifest } from './manifest';
export { createRouterWorkflow, type RouterOptions } from './workflows';
export { ROUTER_DEFAULTS, routerSettingsSchema, routerTrainerSettingsSchema } from './settings';
export { questionFeatures, FEATURE_NAMES, FEATURE_SPEC_VERSION } from './features';
export { predictAll, rank, type Prediction, type CandidateModel } from './predictor';
export { trainRouter, LAMBDA_GRID, type RouterTrainingSettings } from './trainRouter';
export { loadRouterFile, saveRouterFile, DEFAULT_ROUTER_FILE, ROUTER_FORMAT, type RouterFile, type RouterTraining, type LambdaRow } from './routerFile';
export { routerTrainer } from './trainer';
export { ROUTER_PAPER, ROUTER_TITLE } from './variants';
