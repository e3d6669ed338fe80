import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AuthProvider } from './auth/AuthContext.tsx';
import { LazyToaster } from './LazyToaster.tsx';
import { AppRoutes } from './router.tsx';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AuthProvider>
      <BrowserRouter>
        <AppRoutes />
        <LazyToaster />
      </BrowserRouter>
    </AuthProvider>
  </StrictMode>,
);
