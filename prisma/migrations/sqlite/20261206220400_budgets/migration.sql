-- Budgets in accounts mode (issue 49): a user's budget as an admin set it, and every model call's usage per quarter hour.
-- CreateTable
CREATE TABLE "UserBudget" (
    "userId" TEXT NOT NULL PRIMARY KEY,
    "tokensPerDay" REAL,
    "usdPerMonth" REAL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "UserBudget_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "UsageQuarter" (
    "userId" TEXT NOT NULL,
    "quarter" INTEGER NOT NULL,
    "tokens" BIGINT NOT NULL DEFAULT 0,
    "usd" REAL NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("userId", "quarter"),
    CONSTRAINT "UsageQuarter_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
