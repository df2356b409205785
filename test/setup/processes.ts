// The integration and heavy tiers' global setup: the built CLI and the compiled fixtures, each
// rebuilt when older than its sources.
import { buildDist, buildFixtures } from "./build.js";

export default async function setup(): Promise<void> {
  buildDist();
  await buildFixtures();
}
