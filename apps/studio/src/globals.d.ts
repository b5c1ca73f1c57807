export {};

declare global {
  interface Window {
    /** performance.now() when Run was clicked (read by the browser tests). */
    __studioRunClicked?: number;
    /** performance.now() when the run's first node lit on the chart. */
    __studioFirstLit?: number;
  }
}
