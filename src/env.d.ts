/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The application, built once by the composition root (src/app/application.ts). */
    app: import('./app/application.js').Application;
    /** The client's address as our node server determined it (socket, or a trusted proxy's X-Forwarded-For). */
    clientAddress: string;
  }
}
