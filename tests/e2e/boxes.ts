import { expect, type Locator } from '@playwright/test';

/** Boxes of elements as the browser lays them out, for the layout tests. */
export type Box = { x: number; y: number; width: number; height: number };

export const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'the element has a box').not.toBeNull();
  return box!;
}
