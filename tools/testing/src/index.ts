export { startOpenAICompatibleServer, type StubReply, type StubRequest, type OpenAICompatibleServer } from './openaiCompatibleServer';
