// The unit tier's global setup: only the fixtures some unit tests run as small processes (the
// tier never starts the CLI, so a change to src/ does not wait for dist/ to be rebuilt).
import { buildFixtures } from "./build.js";

export default buildFixtures;
