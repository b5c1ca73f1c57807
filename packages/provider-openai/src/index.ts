export { createOpenAIProvider, type GuidedDecoding, type OpenAIProviderOptions, type RetryNotice } from './createOpenAIProvider';
export { OpenAIEmbedder, type OpenAIEmbedderOptions } from './OpenAIEmbedder';
