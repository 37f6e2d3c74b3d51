import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RouteError } from './route-error';

interface Props {
  children: ReactNode;
}

/** Catches a page that throws while rendering, or whose code fails to load; the layout stays. */
export class RouteErrorBoundary extends Component<Props, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error} /> : this.props.children;
  }
}
