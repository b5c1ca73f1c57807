/** Where a point's label goes, in pixels from the point: right of it, moved down when it would overlap another label. */
export interface LabelSpot {
  dx: number;
  dy: number;
}

export interface LabelledPoint {
  id: string;
  x: number;
  y: number;
}

/**
 * A simple greedy placement for the labels of a scatter: each label sits to the right of its
 * point; a label whose box would overlap one already placed moves to the left side, then down
 * in steps of a line. Pixel positions come from the plot's linear domains and size.
 */
export function placeLabels(
  points: readonly LabelledPoint[],
  frame: { x: [number, number]; y: [number, number]; width: number; height: number },
  charWidth = 6.5,
  lineHeight = 14,
): Map<string, LabelSpot> {
  const px = (x: number) => ((x - frame.x[0]) / (frame.x[1] - frame.x[0] || 1)) * frame.width;
  const py = (y: number) => frame.height - ((y - frame.y[0]) / (frame.y[1] - frame.y[0] || 1)) * frame.height;
  const placed: Array<{ left: number; right: number; top: number; bottom: number }> = [];
  const spots = new Map<string, LabelSpot>();
  const order = [...points].sort((a, b) => b.y - a.y || a.x - b.x);
  for (const p of order) {
    const w = p.id.length * charWidth;
    const x0 = px(p.x);
    const y0 = py(p.y);
    const box = (spot: LabelSpot) => {
      const left = spot.dx >= 0 ? x0 + spot.dx : x0 + spot.dx - w;
      return { left, right: left + w, top: y0 + spot.dy - lineHeight / 2, bottom: y0 + spot.dy + lineHeight / 2 };
    };
    const free = (spot: LabelSpot) => {
      const b = box(spot);
      return placed.every((o) => b.right <= o.left || b.left >= o.right || b.bottom <= o.top || b.top >= o.bottom);
    };
    const fitsRight = x0 + 9 + w <= frame.width + 40;
    const candidates: LabelSpot[] = [];
    for (let k = 0; k < 6; k++) {
      const dy = k === 0 ? 0 : (k % 2 === 1 ? 1 : -1) * Math.ceil(k / 2) * lineHeight;
      if (fitsRight) candidates.push({ dx: 9, dy });
      candidates.push({ dx: -9, dy });
    }
    const spot = candidates.find(free) ?? candidates[0] ?? { dx: 9, dy: 0 };
    placed.push(box(spot));
    spots.set(p.id, spot);
  }
  return spots;
}
