import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loginScreenReady } from './app/routes';
import { startI18n } from './i18n';
import { watchConnection } from './api/connection';
import 'antd/dist/antd.css';
import './styles.css';

watchConnection();
await Promise.all([startI18n(), loginScreenReady]);
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
