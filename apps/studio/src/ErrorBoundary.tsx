import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * One part of the page that failed to render says so in its place; the rest of the page (the top
 * bar, the eval list) stays. Without it one exception unmounts the whole app until a reload. Give
 * it a `key` that changes with what it shows (the page, the eval directory), so the next
 * navigation renders afresh.
 */
export class ErrorBoundary extends Component<{ what: string; children: ReactNode }, { error: Error | undefined }> {
  override state: { error: Error | undefined } = { error: undefined };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`studio: could not show ${this.props.what}`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <p className="error pad" role="alert" data-testid="render-error">
        Could not show {this.props.what}: {error.message}. The rest of the studio still works; open something else, or reload once the cause is fixed.
      </p>
    );
  }
}
