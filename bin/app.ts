/**
 * The CDK app (`npx cdk synth`, `npx cdk deploy`): see docs/deploy.md for every setting.
 */
import { ConfigError } from '../lib/cloud/config';
import { buildApp } from '../lib/cloud/app';

try {
  const { app } = buildApp();
  app.synth();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
