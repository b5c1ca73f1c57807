export { createOpenAIProvider, type OpenAIProviderOptions } from './createOpenAIProvider';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './OpenAIEmbedder';
