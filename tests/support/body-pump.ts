// Sends a request body that goes on arriving: for the tests of bodies refused while they are still being sent.
import type http from "node:http";

/** Writes `total` bytes to the request in pieces, each after the last one drained, until done or the request is gone. */
export function pumpBody(request: http.ClientRequest, total: number, pieceBytes = 16 * 1024): void {
  const piece = Buffer.alloc(pieceBytes, "a");
  let sent = 0;
  const pump = () => {
    while (sent < total && !request.destroyed) {
      sent += piece.length;
      if (!request.write(piece)) return void request.once("drain", pump);
    }
  };
  pump();
}
