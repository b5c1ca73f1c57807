import { useEffect, useRef } from 'react';

export interface PlotFigureProps {
  /** Builds the figure (an Observable Plot `Plot.plot(...)`), given the width available. */
  render: (width: number) => SVGSVGElement | HTMLElement;
  testId: string;
  /** Extra attributes for the container (e.g. `data-front`). */
  attributes?: Record<string, string>;
  className?: string;
}

/**
 * Mounts an Observable Plot figure into a div: drawn in an effect, removed on cleanup, and
 * redrawn when `render` changes (memoise it on the data) or the container's width changes.
 */
export function PlotFigure({ render, testId, attributes, className }: PlotFigureProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const container = ref.current;
    if (!container) return;
    let figure: Element | undefined;
    let drawnWidth = -1;
    const draw = () => {
      const width = Math.max(320, Math.floor(container.clientWidth || 640));
      if (width === drawnWidth) return;
      drawnWidth = width;
      figure?.remove();
      figure = render(width);
      container.append(figure);
    };
    draw();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => draw());
    observer?.observe(container);
    return () => {
      observer?.disconnect();
      figure?.remove();
    };
  }, [render]);
  return <div ref={ref} className={className ? `eval-plot ${className}` : 'eval-plot'} data-testid={testId} {...attributes} />;
}
