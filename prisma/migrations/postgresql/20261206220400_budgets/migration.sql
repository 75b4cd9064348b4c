-- Budgets in accounts mode (issue 49): a user's budget as an admin set it, and every model call's usage per quarter hour.
-- CreateTable
CREATE TABLE "UserBudget" (
    "userId" TEXT NOT NULL,
    "tokensPerDay" DOUBLE PRECISION,
    "usdPerMonth" DOUBLE PRECISION,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UserBudget_pkey" PRIMARY KEY ("userId")
);

-- CreateTable
CREATE TABLE "UsageQuarter" (
    "userId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "UsageQuarter_pkey" PRIMARY KEY ("userId","quarter")
);

-- AddForeignKey
ALTER TABLE "UserBudget" ADD CONSTRAINT "UserBudget_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageQuarter" ADD CONSTRAINT "UsageQuarter_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
