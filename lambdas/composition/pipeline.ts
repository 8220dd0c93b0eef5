/** The pipeline group's adapters: the user's PITCHED items (lib/cloud/tableGrants.ts: reads and updates only). */
import { systemClock } from '../adapters/clock';
import { DynamoPipelineStore } from '../adapters/dynamodb/pipelineStore';
import type { PipelineDeps } from '../http/pipeline';
import type { ServerConfig } from './config';
import { tableOf } from './table';

export function pipelineDeps(config: ServerConfig): PipelineDeps {
  const { db, name } = tableOf(config);
  return { pipeline: new DynamoPipelineStore(db, name), clock: systemClock };
}
