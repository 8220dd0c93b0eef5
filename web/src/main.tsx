import '@cloudscape-design/global-styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadRuntimeConfig } from './config/loadConfig';

// Start fetching /config.json before React renders.
const configPromise = loadRuntimeConfig();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App configPromise={configPromise} />
  </StrictMode>,
);
