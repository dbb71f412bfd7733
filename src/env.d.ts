/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The client's address as our node server determined it (socket, or a trusted proxy's X-Forwarded-For). */
    clientAddress?: string;
  }
}
