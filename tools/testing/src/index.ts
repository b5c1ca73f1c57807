export { startOpenAICompatibleServer, type StubReply, type StubRequest, type OpenAICompatibleServer } from './openaiCompatibleServer';
export { readmeUsageExample, readmeTestSource } from './readmeExample';
export { hotpotDevSample, sharedDatasetsDir, type SampleQuestion, type SamplePassage } from './hotpotDevSample';
export { describeMethodConformance, promptVarsFor } from './methodConformance';
