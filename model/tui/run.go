package tui

import (
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// Run shows the chat until the user quits. SIGHUP, SIGTERM and SIGINT end the turn as Ctrl+C
// does before it quits; each error logTrouble carries (the session log's, nil once it is
// written again) is shown as it comes.
func Run(o Options, logTrouble <-chan error) error {
	o.JobControl = jobControl()
	prog := tea.NewProgram(New(o), tea.WithoutSignalHandler())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case sig := <-sigs:
				prog.Send(SignalMsg{Signal: sig})
			case err := <-logTrouble:
				prog.Send(LogTroubleMsg{Err: err})
			case <-done:
				return
			}
		}
	}()
	_, err := prog.Run()
	return err
}
