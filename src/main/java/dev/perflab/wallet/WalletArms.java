package dev.perflab.wallet;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.perflab.support.interleave.ArmChoice;
import dev.perflab.support.interleave.InterleaveProperties;
import dev.perflab.support.interleave.Side;
import dev.perflab.wallet.after.AfterSide;
import dev.perflab.wallet.after.BatchedTransferMapper;
import dev.perflab.wallet.before.BeforeSide;
import dev.perflab.wallet.before.NaiveTransferMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The wallet in the interleaved mode ({@code perflab.lab.interleave.enabled=true}): beside the variant the app's
 * knobs chose, the other side's code paths are built (the same classes), and each request takes the ones of its
 * arm's side. A {@code before} arm runs the 12-statement transfer with MariaDB lookups, an {@code after} arm the
 * batched transfer with the Redis caches (those exist only in an app with {@code perflab.wallet.cache=redis}, so the
 * interleaved experiments run the wallet-after preset). The pool, its auto-commit mode and the schema's index are the
 * app's, shared by both arms: the interleaved comparison leaves them out.
 * {@code perflab_wallet_arm_statements{arm}} counts each arm's statements per transfer. Which side a bean is comes from
 * the knob that chose it ({@code transfer}, {@code cache}), as {@code LoginArms} reads its {@code client}: the wallet's
 * interfaces know nothing of the interleaved mode.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("perflab.lab.interleave.enabled")
class WalletArms {

    static Side transferSide(WalletKnobs knobs) {
        return knobs.transfer() == WalletKnobs.Transfer.OPTIMIZED ? Side.AFTER : Side.BEFORE;
    }

    static Side cacheSide(WalletKnobs knobs) {
        return knobs.cache() == WalletKnobs.Cache.REDIS ? Side.AFTER : Side.BEFORE;
    }

    @Bean
    @Primary
    TransferService armTransferService(InterleaveProperties arms, ObjectProvider<TransferService> beans, WalletKnobs knobs,
            WalletMemberMapper members, NaiveTransferMapper naive, BatchedTransferMapper batched, TransferParts parts) {
        TransferService own = own(beans, ArmTransferService.class);
        Side side = transferSide(knobs);
        Map<Side, TransferService> bySide = side == Side.AFTER
                ? Map.of(side, own, Side.BEFORE, BeforeSide.transferService(members, naive, parts))
                : Map.of(side, own, Side.AFTER, AfterSide.transferService(batched, parts));
        return new ArmTransferService(new ArmChoice<>(arms, bySide, side));
    }

    @Bean
    @Primary
    MemberDirectory armMemberDirectory(InterleaveProperties arms, ObjectProvider<MemberDirectory> beans, WalletKnobs knobs,
            WalletMemberMapper members) {
        MemberDirectory own = own(beans, ArmMemberDirectory.class);
        Side side = cacheSide(knobs);
        Map<Side, MemberDirectory> bySide = side == Side.AFTER
                ? Map.of(side, own, Side.BEFORE, BeforeSide.memberDirectory(members)) : Map.of(side, own);
        return new ArmMemberDirectory(new ArmChoice<>(arms, bySide, side));
    }

    @Bean
    @Primary
    LedgerCodes armLedgerCodes(InterleaveProperties arms, ObjectProvider<LedgerCodes> beans, WalletKnobs knobs,
            LedgerMapper ledger) {
        LedgerCodes own = own(beans, ArmLedgerCodes.class);
        Side side = cacheSide(knobs);
        Map<Side, LedgerCodes> bySide = side == Side.AFTER
                ? Map.of(side, own, Side.BEFORE, BeforeSide.ledgerCodes(ledger)) : Map.of(side, own);
        return new ArmLedgerCodes(new ArmChoice<>(arms, bySide, side));
    }

    /** The variant the app's knobs chose: the one bean of the type that is not this configuration's router. */
    private static <T> T own(ObjectProvider<T> beans, Class<?> router) {
        return beans.stream().filter(t -> !router.isInstance(t)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no wallet variant bean beside " + router.getSimpleName()));
    }

    record ArmTransferService(ArmChoice<TransferService> choice) implements TransferService {

        @Override
        public TransferResponse transfer(TransferCommand command) {
            return choice.current().transfer(command);
        }
    }

    record ArmMemberDirectory(ArmChoice<MemberDirectory> choice) implements MemberDirectory {

        @Override
        public Optional<MemberRef> byPhone(String phone) {
            return choice.current().byPhone(phone);
        }

        /** Every side follows the change: a cache the other arm reads must not keep the old number. */
        @Override
        public void phoneChanged(String oldPhone, String newPhone, MemberRef member) {
            choice.all().forEach(directory -> directory.phoneChanged(oldPhone, newPhone, member));
        }
    }

    record ArmLedgerCodes(ArmChoice<LedgerCodes> choice) implements LedgerCodes {

        @Override
        public LedgerCode get(String code) {
            return choice.current().get(code);
        }

        @Override
        public Map<String, LedgerCode> getAll(List<String> codes) {
            return choice.current().getAll(codes);
        }
    }
}
