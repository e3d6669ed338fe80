import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { AuthProvider } from './auth/AuthContext.tsx';
import { router } from './router.tsx';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

createRoot(root).render(
  <StrictMode>
    <AuthProvider>
      <RouterProvider router={router} />
      {/* Below the 56 px navbar so a toast never covers Logout. */}
      <Toaster
        position="top-right"
        theme="dark"
        richColors
        closeButton
        offset={{ top: 72 }}
        mobileOffset={{ top: 64 }}
      />
    </AuthProvider>
  </StrictMode>,
);
