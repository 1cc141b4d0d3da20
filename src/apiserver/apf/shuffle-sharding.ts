// Shuffle sharding (k8s.io/apiserver/pkg/util/shufflesharding/shufflesharding.go, Dealer) and the
// flow's hash (apf_controller.go hashFlowID): a flow is dealt a hand of `handSize` distinct queues
// out of `deckSize`, the same hand every time, from a 64-bit hash of (flow schema, distinguisher).
import { createHash } from 'node:crypto';

/** hashFlowID: sha256(fsName NUL distinguisher), its first 8 bytes little-endian. */
export function hashFlowID(fsName: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(fsName).update(Buffer.from([0])).update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

export class Dealer {
  constructor(readonly deckSize: number, readonly handSize: number) {
    if (!(deckSize > 0) || !(handSize > 0) || handSize > deckSize) throw new Error(`invalid shuffle sharding: deckSize ${deckSize}, handSize ${handSize}`);
  }

  /** Dealer.DealIntoHand: the hand for this hash, in deal order (distinct queue indexes). */
  dealIntoHand(hashValue: bigint): number[] {
    const remainders: number[] = [];
    let h = hashValue;
    for (let i = 0; i < this.handSize; i++) {
      const d = BigInt(this.deckSize - i);
      const next = h / d;
      remainders.push(Number(h - d * next));
      h = next;
    }
    const hand: number[] = [];
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i]!;
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
      hand.push(card);
    }
    return hand;
  }
}
