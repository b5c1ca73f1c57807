export * from './errors';
export * from './types';
export * from './usage';
export * from './retriever';
export type {
  ChatMessage,
  PromptTemplate,
  ModelCallRequest,
  ModelCallResult,
  ModelPort,
  Provider,
  ProviderRequest,
  ProviderResponse,
} from './model/port';
