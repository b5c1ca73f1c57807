export { describeMethodConformance, promptVarsFor, conformancePromptVars, missingPromptVars, settingsVariants, type MethodConformanceOptions, type PromptVars } from './methodConformance';
export { overlapRetriever } from './overlapRetriever';
export { conformanceSample, SAMPLE_FILE, type SampleEntry, type SampleQuestion, type SamplePassage } from './sample';
