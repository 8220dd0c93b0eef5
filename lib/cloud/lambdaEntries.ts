/**
 * Every Lambda the stack deploys, by name: its entry module and the packages installed beside its
 * bundle. The bundle-contents test and the Lambda benchmark both walk this list, so neither can miss a
 * function the stack adds.
 */
import { cloudHandlerGroups, type CloudHandlerGroup } from './api';
import { CUSTOM_MESSAGE_ENTRY } from './auth';
import { DISPATCHER_ENTRY, SENDER_ENTRY, SENDER_NODE_MODULES } from './sending';
import { handlerGroups, type HandlerGroupDefinition } from '../../schema/routes';

/** The name of each deployed Lambda: its handler group's, or the worker's. */
export type DeployedLambdaName = CloudHandlerGroup | 'dispatcher' | 'sender' | 'cognitoCustomMessage';

export interface LambdaEntry {
  name: DeployedLambdaName;
  entry: string;
  nodeModules: readonly string[];
}

export function deployedLambdas(): LambdaEntry[] {
  return [
    ...cloudHandlerGroups().map((name) => {
      const group: HandlerGroupDefinition = handlerGroups[name];
      return { name, entry: group.entry, nodeModules: group.nodeModules ?? [] };
    }),
    { name: 'dispatcher', entry: DISPATCHER_ENTRY, nodeModules: [] },
    { name: 'sender', entry: SENDER_ENTRY, nodeModules: SENDER_NODE_MODULES },
    { name: 'cognitoCustomMessage', entry: CUSTOM_MESSAGE_ENTRY, nodeModules: [] },
  ];
}
