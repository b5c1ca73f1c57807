export { startOpenAICompatibleServer, type StubReply, type StubRequest, type OpenAICompatibleServer } from './openaiCompatibleServer';
export { readmeUsageExample, usageExampleSource, runExample, describeRun, type ExampleRun } from './readmeExample';
export { hotpotDevSample, hotpotTrainSample, sharedDatasetsDir, type SampleQuestion, type SamplePassage } from './hotpotDevSample';
export { firstThenWait, timed, questionStarting, type TimedCall } from './timedProvider';
export { startRedis, startPostgres, isListening, type TestServer } from './servers';
export { betterSqliteCopy, betterSqlitePreload } from './betterSqliteCopy';
export { aptInstall, debianBinary, debianPackageStatus, settledPackage } from './apt';
